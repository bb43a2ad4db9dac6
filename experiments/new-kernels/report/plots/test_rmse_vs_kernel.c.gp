# kexp plot; run `gnuplot test_rmse_vs_kernel.c.gp` here to redraw test_rmse_vs_kernel.c.svg
set terminal svg size 1000,691 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_rmse_vs_kernel.c.svg'
set title 'test RMSE against c: inverse_multiquadric formula=(1 + r2 / c^2)^(-0.5)'
set xlabel 'c (kernel.c)'
set ylabel 'test RMSE'
set grid
set format x '%g'
set format y '%g'
set bmargin 6
set label 100 'Each point: the cell with the lowest test_rmse over solver.lambda.' at screen 0.01, screen 0.0521 left font ',12'
set label 101 'Points: one run each, so no bars.' at screen 0.01, screen 0.0203 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('0.5' 0.5, '1' 1, '2' 2, '4' 4)
set logscale x
$line0 << EOD
0.5 1.312757150054507 1.312757150054507 1.312757150054507
1 1.2211188708949436 1.2211188708949436 1.2211188708949436
2 1.1325896431266977 1.1325896431266977 1.1325896431266977
4 1.076276328750451 1.076276328750451 1.076276328750451
EOD
$line1 << EOD
0.5 1.3127573951594844 1.3127573951594844 1.3127573951594844
1 1.2211169471874057 1.2211169471874057 1.2211169471874057
2 1.1325646361226178 1.1325646361226178 1.1325646361226178
4 1.5685320874890045 1.5685320874890045 1.5685320874890045
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'kernel_ridge precision=double (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'kernel_ridge precision=single (dual)'
