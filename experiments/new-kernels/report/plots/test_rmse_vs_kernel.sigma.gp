# kexp plot; run `gnuplot test_rmse_vs_kernel.sigma.gp` here to redraw test_rmse_vs_kernel.sigma.svg
set terminal svg size 1000,718 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_rmse_vs_kernel.sigma.svg'
set title 'test RMSE against σ'
set xlabel 'σ (kernel.sigma)'
set ylabel 'test RMSE'
set grid
set format x '%g'
set format y '%g'
set bmargin 6
set label 100 'Each point: the cell with the lowest test_rmse over solver.lambda.' at screen 0.01, screen 0.0501 left font ',12'
set label 101 'Points: one run each, so no bars.' at screen 0.01, screen 0.0195 left font ',12'
set key above maxcols 1 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('0.5' 0.5, '1' 1, '2' 2, '4' 4)
set logscale x
$line0 << EOD
0.5 1.5789307938167347 1.5789307938167347 1.5789307938167347
1 1.1526289487649672 1.1526289487649672 1.1526289487649672
2 1.0928678633486644 1.0928678633486644 1.0928678633486644
4 1.1647511716772925 1.1647511716772925 1.1647511716772925
EOD
$line1 << EOD
0.5 1.5789322783910564 1.5789322783910564 1.5789322783910564
1 1.1526283166733498 1.1526283166733498 1.1526283166733498
2 1.247966931453459 1.247966931453459 1.247966931453459
4 1.687585700413678 1.687585700413678 1.687585700413678
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'gaussian map=none · kernel_ridge precision=double (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'gaussian map=none · kernel_ridge precision=single (dual)'
