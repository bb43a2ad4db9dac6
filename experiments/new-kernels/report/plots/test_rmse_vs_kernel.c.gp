# kexp plot; run `gnuplot test_rmse_vs_kernel.c.gp` here to redraw test_rmse_vs_kernel.c.svg
set terminal svg size 1000,718 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_rmse_vs_kernel.c.svg'
set title 'test RMSE against c'
set xlabel 'c (kernel.c)'
set ylabel 'test RMSE'
set grid
set format x '%g'
set format y '%g'
set bmargin 6
set label 100 'Each point: the cell with the lowest test_rmse over solver.lambda.' at screen 0.01, screen 0.0501 left font ',12'
set label 101 'Points: one run each, so no bars.' at screen 0.01, screen 0.0195 left font ',12'
set key above maxcols 1 width 0 font ',12'
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('0.5' 0.5, '1' 1, '2' 2, '4' 4)
set logscale x
$line0 << EOD
0.5 1.297025641339756 1.297025641339756 1.297025641339756
1 1.201935506996402 1.201935506996402 1.201935506996402
2 1.1227156865582917 1.1227156865582917 1.1227156865582917
4 1.1006519045737782 1.1006519045737782 1.1006519045737782
EOD
$line1 << EOD
0.5 1.2970260285599238 1.2970260285599238 1.2970260285599238
1 1.2019333723042962 1.2019333723042962 1.2019333723042962
2 1.1227456661910582 1.1227456661910582 1.1227456661910582
4 1.491401931830489 1.491401931830489 1.491401931830489
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'inverse_multiquadric formula=(1 + r2 / c^2)^(-0.5) · kernel_ridge precision=double (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'inverse_multiquadric formula=(1 + r2 / c^2)^(-0.5) · kernel_ridge precision=single (dual)'
