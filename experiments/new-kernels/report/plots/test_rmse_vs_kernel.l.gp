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
0.5 1.2964297564518228 1.2964297564518228 1.2964297564518228
1 1.1883738765659393 1.1883738765659393 1.1883738765659393
2 1.1207335177970184 1.1207335177970184 1.1207335177970184
4 1.0908603604241867 1.0908603604241867 1.0908603604241867
EOD
$line1 << EOD
0.5 1.2964304246178124 1.2964304246178124 1.2964304246178124
1 1.1883781054287956 1.1883781054287956 1.1883781054287956
2 1.1208033698580377 1.1208033698580377 1.1208033698580377
4 1.5394536480556835 1.5394536480556835 1.5394536480556835
EOD
$line2 << EOD
0.5 1.4675732985222505 1.4675732985222505 1.4675732985222505
1 1.217031454704888 1.217031454704888 1.217031454704888
2 1.1768676428257872 1.1768676428257872 1.1768676428257872
4 1.1679082732865762 1.1679082732865762 1.1679082732865762
EOD
$line3 << EOD
0.5 1.4689072149142717 1.4689072149142717 1.4689072149142717
1 1.2170327622874593 1.2170327622874593 1.2170327622874593
2 1.1768537715443226 1.1768537715443226 1.1768537715443226
4 1.1679748491287703 1.1679748491287703 1.1679748491287703
EOD
$line4 << EOD
0.5 1.5004007963155988 1.5004007963155988 1.5004007963155988
1 1.1867605405426382 1.1867605405426382 1.1867605405426382
2 1.1260102527113776 1.1260102527113776 1.1260102527113776
4 1.1065190946349226 1.1065190946349226 1.1065190946349226
EOD
$line5 << EOD
0.5 1.5004022064779452 1.5004022064779452 1.5004022064779452
1 1.1867591470080747 1.1867591470080747 1.1867591470080747
2 1.1260080414869784 1.1260080414869784 1.1260080414869784
4 1.3391528536016608 1.3391528536016608 1.3391528536016608
EOD
$line6 << EOD
0.5 2.5864564747727394 2.5864564747727394 2.5864564747727394
1 1.2559743647370933 1.2559743647370933 1.2559743647370933
EOD
$line7 << EOD
0.5 2.595129051361148 2.595129051361148 2.595129051361148
1 1.2559750738279585 1.2559750738279585 1.2559750738279585
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'rational_quadratic formula=(1 + r2 / (2 * alpha * l^2))^(-alpha) · kernel_ridge precision=double (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'rational_quadratic formula=(1 + r2 / (2 * alpha * l^2))^(-alpha) · kernel_ridge precision=single (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#009E73' title 'matern32 formula=(1 + sqrt(3) * r / l) * exp(-sqrt(3) * r / l) · kernel_ridge precision=double (dual)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#CC79A7' title 'matern32 formula=(1 + sqrt(3) * r / l) * exp(-sqrt(3) * r / l) · kernel_ridge precision=single (dual)', \
     $line4 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 1 lc rgb '#E69F00' title 'matern52 formula=(1 + sqrt(5) * r / l + 5 * r2 / (3 * l^2)) * exp(-sqrt(5) * r / l) · kernel_ridge precision=double (dual)', \
     $line5 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#56B4E9' title 'matern52 formula=(1 + sqrt(5) * r / l + 5 * r2 / (3 * l^2)) * exp(-sqrt(5) * r / l) · kernel_ridge precision=single (dual)', \
     $line6 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#000000' title 'periodic formula=exp(-2 * sin(pi * r / p)^2 / l^2) · kernel_ridge precision=double (dual)', \
     $line7 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#F0E442' title 'periodic formula=exp(-2 * sin(pi * r / p)^2 / l^2) · kernel_ridge precision=single (dual)'
