# kexp plot; run `gnuplot test_rmse_vs_kernel.l.gp` here to redraw test_rmse_vs_kernel.l.svg
set terminal svg size 1000,880 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_rmse_vs_kernel.l.svg'
set title 'test RMSE against l'
set xlabel 'l (kernel.l)'
set ylabel 'test RMSE'
set grid
set format x '%g'
set format y '%g'
set bmargin 6
set label 100 'Each point: the cell with the lowest test_rmse over solver.lambda.' at screen 0.01, screen 0.0409 left font ',12'
set label 101 'Points: one run each, so no bars.' at screen 0.01, screen 0.0159 left font ',12'
set key above maxcols 1 width 0 font ',12'
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('0.5' 0.5, '1' 1, '2' 2, '4' 4)
set logscale x
$line0 << EOD
0.5 1.3085482817973668 1.3085482817973668 1.3085482817973668
1 1.2068185378052652 1.2068185378052652 1.2068185378052652
2 1.1244160878226963 1.1244160878226963 1.1244160878226963
4 1.0718101283036523 1.0718101283036523 1.0718101283036523
EOD
$line1 << EOD
0.5 1.3085487032272471 1.3085487032272471 1.3085487032272471
1 1.2068183000934078 1.2068183000934078 1.2068183000934078
2 1.1343939695851337 1.1343939695851337 1.1343939695851337
4 1.6161544948751825 1.6161544948751825 1.6161544948751825
EOD
$line2 << EOD
0.5 1.4785006820719286 1.4785006820719286 1.4785006820719286
1 1.2334496981154266 1.2334496981154266 1.2334496981154266
2 1.174015912962942 1.174015912962942 1.174015912962942
4 1.1652199915838595 1.1652199915838595 1.1652199915838595
EOD
$line3 << EOD
0.5 1.4803584141926784 1.4803584141926784 1.4803584141926784
1 1.2334482714521104 1.2334482714521104 1.2334482714521104
2 1.1740072433731277 1.1740072433731277 1.1740072433731277
4 1.2035938743389298 1.2035938743389298 1.2035938743389298
EOD
$line4 << EOD
0.5 1.5029438522845793 1.5029438522845793 1.5029438522845793
1 1.2001213939117221 1.2001213939117221 1.2001213939117221
2 1.1288795713736077 1.1288795713736077 1.1288795713736077
4 1.1175541980667523 1.1175541980667523 1.1175541980667523
EOD
$line5 << EOD
0.5 1.5029440599909973 1.5029440599909973 1.5029440599909973
1 1.2001217410322804 1.2001217410322804 1.2001217410322804
2 1.128817013912556 1.128817013912556 1.128817013912556
4 1.4121439543347025 1.4121439543347025 1.4121439543347025
EOD
$line6 << EOD
0.5 2.5809061936748408 2.5809061936748408 2.5809061936748408
1 1.2392355253514642 1.2392355253514642 1.2392355253514642
EOD
$line7 << EOD
0.5 2.5900210575260316 2.5900210575260316 2.5900210575260316
1 1.2392364274450707 1.2392364274450707 1.2392364274450707
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'rational_quadratic formula=(1 + r2 / (2 * alpha * l^2))^(-alpha) · kernel_ridge precision=double (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'rational_quadratic formula=(1 + r2 / (2 * alpha * l^2))^(-alpha) · kernel_ridge precision=single (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#009E73' title 'matern32 formula=(1 + sqrt(3) * r / l) * exp(-sqrt(3) * r / l) · kernel_ridge precision=double (dual)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#CC79A7' title 'matern32 formula=(1 + sqrt(3) * r / l) * exp(-sqrt(3) * r / l) · kernel_ridge precision=single (dual)', \
     $line4 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 1 lc rgb '#E69F00' title 'matern52 formula=(1 + sqrt(5) * r / l + 5 * r2 / (3 * l^2)) * exp(-sqrt(5) * r / l) · kernel_ridge precision=double (dual)', \
     $line5 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#56B4E9' title 'matern52 formula=(1 + sqrt(5) * r / l + 5 * r2 / (3 * l^2)) * exp(-sqrt(5) * r / l) · kernel_ridge precision=single (dual)', \
     $line6 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#000000' title 'periodic formula=exp(-2 * sin(pi * r / p)^2 / l^2) · kernel_ridge precision=double (dual)', \
     $line7 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#F0E442' title 'periodic formula=exp(-2 * sin(pi * r / p)^2 / l^2) · kernel_ridge precision=single (dual)'
